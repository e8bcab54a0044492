"""The codes of The Pyramid of Horus's engine: statuses, phases, nodes, events, action ids.

Small ints shared by the state, the rules, the views and the text. Decision action ids
are laid out in fixed blocks (documented in docs/rules/horus.md) so that they stay stable:
setup choices, moves, the corridor actions per sarcophagus or alcove, reroll masks, the
once-per-game abilities, equipment uses, jumps away from a falling block, and discards or
bag placements per card type.
"""

from __future__ import annotations

from necropolis.games.horus import components as cp

# --- statuses of an adventurer -----------------------------------------------------------
UNPLACED, INSIDE, ESCAPED, CRUSHED, SEALED, MUMMIFIED = range(6)
STATUS_NAMES = (
    "not yet placed",
    "in the pyramid",
    "escaped",
    "crushed",
    "sealed in",
    "turned into a mummy",
)

# --- phases of the round -----------------------------------------------------------------
P_SETUP, P_WLL, P_ROLL, P_ACTIONS, P_MUMMIES, P_BLOCK, P_OVER = range(7)
PHASE_NAMES = (
    "setup",
    "adjust wound and load level",
    "determine the number of actions",
    "perform actions",
    "move the mummies",
    "place a stone block",
    "game over",
)

# --- nodes: what the state waits for ------------------------------------------------------
# decisions
D_SETUP, D_WLL, D_TURN, D_LOCK, D_ROOM, D_JUMP, D_REACT, D_CHECK = range(8)
# chance events
C_ACTION_DIE, C_MUMMY_DIE, C_LOCK_DIE, C_DRAW, C_SARC, C_BLOCK, C_CHECK, C_CHEST = range(8, 16)
N_TERMINAL = 16
#: nodes from here on (up to N_TERMINAL) are chance events
FIRST_CHANCE = C_ACTION_DIE

# --- queued events ------------------------------------------------------------------------
E_GIVE, E_TOUCH, E_JUMP, E_SEAL, E_DRAW, E_TAKE, E_CHEST, E_BLOCK, E_HORUS_BLOCK = range(9)

# --- decision action ids -------------------------------------------------------------------
NT = cp.NUM_CARD_TYPES
A_SETUP = 0  # + adventurer * 2 + entrance
A_MOVE = 16  # + direction
A_SEARCH = 20
A_LEAVE = 21
A_DONE = 22
A_DONE_STAMINA = 23
A_OPEN = 24  # + sarcophagus
A_TAKE = A_OPEN + cp.NUM_SARCOPHAGI  # + sarcophagus
A_PEEK = A_TAKE + cp.NUM_SARCOPHAGI  # + sarcophagus (Linguistics)
A_PICK = A_PEEK + cp.NUM_SARCOPHAGI  # + idol god
A_REROLL = A_PICK + 5  # + mask - 1 (mask 1..31 over the five dice)
A_CROWBAR = A_REROLL + 31
A_LOCKPICKING = A_CROWBAR + 1
MAX_MUMMIES = 3 + 6
A_SHOOT = A_LOCKPICKING + 1  # + mummy
A_UDJAT = A_SHOOT + MAX_MUMMIES
A_CLAIRVOYANCE = A_UDJAT + 1
A_KEEP_BLOCK = A_CLAIRVOYANCE + 1
A_RETURN_BLOCK = A_KEEP_BLOCK + 1
A_ANTIDOTE_SNAKE = A_RETURN_BLOCK + 1
A_ANTIDOTE_SCORPION = A_ANTIDOTE_SNAKE + 1
A_MEDIKIT_CROCODILE = A_ANTIDOTE_SCORPION + 1
A_MEDIKIT_BLOCK = A_MEDIKIT_CROCODILE + 1
A_USE_REACTION = A_MEDIKIT_BLOCK + 1
A_TAKE_WOUND = A_USE_REACTION + 1
A_JUMP = A_TAKE_WOUND + 1  # + direction
A_JUMP_DODGE = A_JUMP + 4  # + direction
A_DISCARD = A_JUMP_DODGE + 4  # + card type (from the cards in front)
A_DISCARD_BAG = A_DISCARD + NT  # + card type (from inside a Bag)
A_BAG_PUT = A_DISCARD_BAG + NT  # + card type
NUM_ACTIONS = A_BAG_PUT + NT

# events added late: a room-making decision before a voluntary action, a Reflexes or
# Swimming reaction to a drawn wound, the check of a block by Udjat or Clairvoyance, a
# sarcophagus content drawn (arg: sarcophagus + 100 for a Linguistics peek)
E_ROOM, E_REACT, E_CHECK, E_CHECK_DECIDE, E_SARC = range(9, 14)
PEEK_FLAG = 100
#: Added to a touch's mummy (E_TOUCH's arg) when the mummy faced back along its section as
#: it touched: a twelve-wound adventurer rises where it was touched, facing the other way.
TOUCH_BACKWARD = 100

#: Equipment uses: action -> (equipment card, wound card it removes).
HEALS = {
    A_ANTIDOTE_SNAKE: (cp.ANTIDOTE, cp.SNAKE),
    A_ANTIDOTE_SCORPION: (cp.ANTIDOTE, cp.SCORPION),
    A_MEDIKIT_CROCODILE: (cp.MEDIKIT, cp.CROCODILE),
    A_MEDIKIT_BLOCK: (cp.MEDIKIT, cp.BLOCK_WOUND),
}

# A block falls every round and the exit spaces carry block numbers (checked as the data
# loads), so the pyramid is closed for good by the time the box is empty.
MAX_ROUNDS = cp.NUM_BLOCKS


NODE_NAMES = (
    "choose an adventurer",
    "adjust the wound and load level",
    "act",
    "pick the lock",
    "make room",
    "jump away",
    "react to a wound",
    "keep or return the checked block",
    "action dice",
    "mummy dice",
    "lock dice",
    "draw a card",
    "sarcophagus card",
    "falling block",
    "check a block",
    "chest die",
    "game over",
)

/**
 * The boards' rules for targets that may be picked in any order, and for targets that a
 * click only selects, kept apart from the board components so that the table knows them
 * before a board's code has arrived.
 */

/** A horus reroll rerolls a set of dice: they may be clicked in any order. */
export const horusAnyOrder = (target: string): boolean => target.startsWith("die:");

/** A luxor hand card is selected by a click, never played by it: the adventurer it moves
 * (or the prompt's button, for a card that moves by itself) plays it. */
export const luxorHolds = (target: string): boolean => target.startsWith("hand:");

/** horus: leaving the pyramid ends the seat's game, unlike the turn's usual moves. */
export const horusDrastic = (kind: string): boolean => kind === "do_leave";

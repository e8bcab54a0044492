/**
 * The Pyramid of Horus's pictures for its gods and cards, shared by its board and its
 * players' panels: each god's creature (Hededet's scorpion, Sobek's crocodile, Thoth's
 * ibis, Anubis's jackal, Horus's falcon), and a card's glyph by the data file's name (a
 * deck's name, "sand", gives the glyph of the cards face down from it).
 */

const GOD_GLYPH: Record<string, string> = { hededet: "scorpion", sobek: "crocodile", thoth: "ibis", anubis: "jackal", horus: "falcon" };

export const godGlyph = (god: string): string => GOD_GLYPH[god.toLowerCase()] ?? "eye";

const BY_NAME: Record<string, string> = {
  "mummy wound": "mummy", "block wound": "block", snake: "snake", scorpion: "scorpion", crocodile: "crocodile",
  "antidote vial": "vial", "medi-kit": "medkit", crowbar: "crowbar", bag: "bag", udjat: "eye",
  sand: "scorpion", water: "crocodile", rubble: "snake",
};

/** A card's glyph, by the data file's card name (or a deck's, for its cards' backs). */
export function cardGlyph(name: string): string {
  const n = name.toLowerCase();
  const god = Object.keys(GOD_GLYPH).find((g) => n.startsWith(g));
  if (n.endsWith("idol") && god) return godGlyph(god);
  if (n.includes("treasure")) return "goblet";
  if (n.includes("necklace")) return "necklace";
  if (n.includes("chest")) return "chest";
  return BY_NAME[n] ?? (god ? godGlyph(god) : "goblet");
}

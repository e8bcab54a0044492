/**
 * The table language's template renderer, the same syntax as the engine's
 * (`necropolis.engine.language.render`): `{name}` is a parameter, `{name|one|other}` a
 * plural whose chosen form has `#` for the number. A parameter named `seat` or ending in
 * `_seat` holds a seat number and is written by `seatLabel` ("you" for the reader, a
 * name or "Player N" for anyone else). A string parameter is looked up by `term`, so a
 * catalog can translate the data file's ids ("crocodile"). A whole-number parameter may be
 * written by `numbered` instead (a board's place, "the stairs" for 0, "field 12"). The first
 * letter of the sentence is capitalised.
 */

export type Params = Record<string, unknown>;

export interface RenderContext {
  /** How a seat is written for this reader (seat null: nobody). */
  seatLabel: (seat: number | null) => string;
  /** A component id's word in the reader's language, or undefined to keep it. */
  term?: (id: string) => string | undefined;
  /** The decimal/list formatting of the reader's language. */
  locale?: string;
  /** The words for whole number `value` of parameter `name`, or undefined to print it. */
  numbered?: (name: string, value: number) => string | undefined;
}

const FIELD = /\{([a-z_][a-z0-9_]*)(?:\|([^|{}]*)\|([^|{}]*))?\}/g;

export function isSeatParam(name: string): boolean {
  return name === "seat" || name.endsWith("_seat");
}

function formatValue(value: unknown, ctx: RenderContext): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map((v) => formatValue(v, ctx)).join(", ");
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : value.toLocaleString(ctx.locale);
  }
  if (typeof value === "string") return ctx.term?.(value) ?? value;
  if (typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The sentence of `template` with `params`, as written for the reader of `ctx`. */
export function render(template: string, params: Params, ctx: RenderContext): string {
  const text = template.replace(FIELD, (_m, name: string, one?: string, other?: string) => {
    const value = params[name];
    if (one !== undefined && other !== undefined) {
      const form = value === 1 ? one : other;
      return form.replaceAll("#", formatValue(value, { ...ctx, term: undefined }));
    }
    if (isSeatParam(name) && (value === null || value === undefined || typeof value === "number")) {
      return ctx.seatLabel(typeof value === "number" ? value : null);
    }
    if (typeof value === "number" && Number.isInteger(value)) {
      const words = ctx.numbered?.(name, value);
      if (words !== undefined) return words;
    }
    return formatValue(value, ctx);
  });
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The parameter names a template uses (to check that a catalog's template fits its kind). */
export function templateFields(template: string): Set<string> {
  const names = new Set<string>();
  for (const m of template.matchAll(FIELD)) names.add(m[1]);
  return names;
}

/** A character a quoted element of an array literal must escape. */
const SPECIAL = /["\\]/;
const SPECIALS = /["\\]/g;

/**
 * Rows as the parameters of `SELECT … FROM unnest($1::type[], $2::type[], …)`: one array literal per
 * field (`{"a","b",NULL}`), in the order given — a Date as ISO 8601 text, every other value as its
 * text. Built here in one pass over the rows, where the driver's own conversion of a JavaScript array
 * ran two regular expressions and a type check on every element (and formatted a Date in local time):
 * about a tenth of what the stitcher spent on a beacon. A set-wise write through unnest costs
 * PostgreSQL less than through json_to_recordset (measured on 1,000-row batches: events 7.6 against
 * 11.3 µs a row, visits 10 against 13).
 */
export function unnestColumns<T extends object>(rows: readonly T[], fields: readonly (keyof T)[]): string[] {
  const literals = fields.map(() => '{');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const separator = i === 0 ? '' : ',';
    for (let f = 0; f < fields.length; f++) literals[f] += separator + element(row[fields[f]]);
  }
  return literals.map((literal) => `${literal}}`);
}

/** One element of an array literal: NULL, or the value's text in double quotes (`"` and `\` escaped). */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return SPECIAL.test(text) ? `"${text.replace(SPECIALS, '\\$&')}"` : `"${text}"`;
}

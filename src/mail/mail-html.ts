/** A string as HTML text or attribute value, for e-mails' HTML bodies. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

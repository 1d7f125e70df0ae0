/**
 * Mail providers anyone can get an address at: no account's single sign-on may claim one (its
 * provider would then receive every sign-in of that domain typed on the login page). Not a proof of
 * ownership — a domain is still claimed first come, first served (see docs/enterprise.md).
 */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  '126.com',
  '163.com',
  'aol.com',
  'fastmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.com',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'outlook.com',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'tuta.io',
  'tutanota.com',
  'web.de',
  'yahoo.co.uk',
  'yahoo.com',
  'yandex.com',
  'yandex.ru',
  'ymail.com',
  'zoho.com',
]);

/** The first public mail domain (or a subdomain of one) among `domains`, if any. */
export function publicMailDomainOf(domains: readonly string[]): string | undefined {
  return domains.find((d) => PUBLIC_MAIL_DOMAINS.has(d) || [...PUBLIC_MAIL_DOMAINS].some((p) => d.endsWith(`.${p}`)));
}

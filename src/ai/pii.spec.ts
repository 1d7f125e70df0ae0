import { EMAIL_MASK, PHONE_MASK, redactPii } from './pii.js';

describe('redactPii', () => {
  const r = (text: string) => redactPii(text).text;

  it('masks e-mail addresses, however they are dressed', () => {
    expect(r('Write to alice@example.com today')).toBe(`Write to ${EMAIL_MASK} today`);
    expect(r('<Bob.Smith+news@mail.example.co.uk>, carol_99@sub-domain.example.org.')).toBe(`<${EMAIL_MASK}>, ${EMAIL_MASK}.`);
    expect(r('josé.garcía@ejemplo.es')).toBe(EMAIL_MASK);
    expect(redactPii('a@b.co and c@d.io').redactions).toBe(2);
  });

  it.each([
    ['+1 (555) 123-4567'],
    ['+44 20 7946 0958'],
    ['+33612345678'],
    ['0033 6 12 34 56 78'],
    ['555-123-4567'],
    ['(555) 123-4567'],
    ['06 12 34 56 78'],
    ['030 1234567'],
    ['555.123.4567'],
    ['5551234567'],
  ])('masks the phone number %s', (phone) => {
    expect(r(`Call me on ${phone}, please.`)).toBe(`Call me on ${PHONE_MASK}, please.`);
  });

  it.each([
    ['the year 2024'],
    ['order 12345678'],
    ['on 2026-11-22'],
    ['on 22/11/2026'],
    ['pi is 3.14159265358'],
    ['from 192.168.100.200'],
    ['card 4111 1111 1111 1111 1111'],
    ['version 1.2.3'],
    ['timestamp 1763810000000'],
    ['3 apples and 4 pears'],
  ])('leaves "%s" alone', (text) => {
    expect(r(text)).toBe(text);
  });

  it('masks both kinds in one prompt and leaves the rest as it was', () => {
    const { text, redactions } = redactPii('Summarise: alice@example.com (tel. +49 30 901820) asked about 3 invoices in 2025.');
    expect(text).toBe(`Summarise: ${EMAIL_MASK} (tel. ${PHONE_MASK}) asked about 3 invoices in 2025.`);
    expect(redactions).toBe(2);
  });

  it('does not see digits inside an e-mail as a phone number', () => {
    expect(r('user5551234567@example.com')).toBe(EMAIL_MASK);
  });

  it('masks an e-mail after a long run of local-part characters without an @', () => {
    // A 32 000-character base64 blob: before the lookbehind each position rescanned the run (about 1 s here).
    const blob = 'QUJD'.repeat(8000);
    expect(r(`${blob} bob@example.com`)).toBe(`${blob} ${EMAIL_MASK}`);
  });
});

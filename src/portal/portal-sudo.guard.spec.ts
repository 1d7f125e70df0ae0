import { confirmPasswordPath, safeReturnPath } from './portal-sudo.guard.js';

describe('the confirm-password page’s way back', () => {
  it('keeps a path of the portal', () => {
    for (const path of ['/portal/account/mfa', '/portal/', '/portal/apps/app_1/editor']) expect(safeReturnPath(path)).toBe(path);
  });

  it('turns anything else into the account page: other sites, other paths, tricks', () => {
    const elsewhere = [
      undefined,
      ['/portal/account/mfa'],
      '',
      'https://evil.example/portal/',
      '//evil.example/portal/',
      '/portal//evil.example',
      '/\\evil.example',
      '/portal\\evil',
      '/portal/../v1/apps',
      '/portal/%2e%2e/v1',
      '/portal/account?next=https://evil.example',
      '/portal/account#x',
      'javascript:alert(1)',
      '/v1/apps',
      ' /portal/',
      `/portal/${'a'.repeat(300)}`,
    ];
    for (const value of elsewhere) expect({ value, path: safeReturnPath(value) }).toEqual({ value, path: '/portal/account' });
  });

  it('builds the page’s address with the way back as a query parameter', () => {
    expect(confirmPasswordPath('/portal/account/mfa')).toBe('/portal/account/confirm-password?return=%2Fportal%2Faccount%2Fmfa');
  });
});

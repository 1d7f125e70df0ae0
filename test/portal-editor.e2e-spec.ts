import { NO_RATE_LIMIT } from './support/api-client.js';
import { join } from 'node:path';
import { ARTIFACTS_DIR, BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { portalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

describeInBrowser(`the landing-page editor in a browser, without JavaScript (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let appId: string;
  let auth: { authorization: string };

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    // Every button posts the form: the editor needs no script.
    session = await openBrowser({ javaScriptEnabled: false });
    const signedIn = await portalSession(app, 'editor-dev@example.com');
    auth = { authorization: `Bearer ${signedIn.apiKey}` };
    appId = (await app.http().post('/v1/apps').set(auth).send({ name: 'Trail Notes', description: 'Hiking logs' }).expect(201)).body.appId;
    const [name, value] = signedIn.cookie.split('=');
    await session.context.addCookies([{ name, value, url: `${app.url}/portal/` }]);
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  const saved = async () => (await app.http().get(`/v1/apps/${appId}/landing-page`).set(auth).expect(200)).body;

  it('edits every field, adds, reorders and removes features and questions, previews the unsaved page, deploys it, and the deployment serves it', async () => {
    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}`);
    await Promise.all([page.waitForURL(/\/editor$/), page.getByRole('link', { name: 'Edit the landing page' }).click()]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Landing page');
    const submit = async (name: string | RegExp) => Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name, exact: true }).click()]);

    // Text inputs and text areas.
    await page.getByLabel(/^Headline \(/).fill('Every trail, remembered');
    await page.getByLabel(/^Subheadline/).fill('Log your hikes.\nShare the views.');
    await page.locator('#f-hero-ctaLabel').fill('Start logging');
    // Lists: two features added, filled, reordered; one removed; a question added.
    await submit('Add a feature');
    await submit('Add a feature');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Unsaved changes');
    // What was typed before survives the round trips.
    await expect(page.getByLabel(/^Headline \(/).inputValue()).resolves.toBe('Every trail, remembered');
    await page.locator('#f-features-0-title').fill('Offline maps');
    await page.locator('#f-features-0-body').fill('Works without signal.');
    await page.locator('#f-features-1-title').fill('Photo journal');
    await page.locator('#f-features-1-body').fill('Pictures on the route.');
    await submit('Move feature 2 up');
    await expect(page.locator('#f-features-0-title').inputValue()).resolves.toBe('Photo journal');
    await submit('Add a feature');
    await page.locator('#f-features-2-title').fill('To be removed');
    await submit('Remove feature 3');
    await expect(page.locator('#f-features-2-title').count()).resolves.toBe(0);
    await submit('Add a question');
    await page.getByLabel(/^Question \(/).fill('Is it free?');
    await page.getByLabel(/^Answer/).fill('Yes, for ten hikes a month.');
    await page.getByLabel(/^Headline above the sign-up form/).fill('Join the trail crew');
    // A checkbox, the sign-up texts and the colour input.
    await expect(page.getByLabel('Show the sign-up form').isChecked()).resolves.toBe(true);
    await page.locator('#f-signup-buttonLabel').fill('Count me in');
    await page.getByLabel(/^Text under the button/).fill('One e-mail a month, no more.');
    await page.getByLabel(/^Thank-you message/).fill('See you on the trail!');
    await page.getByLabel('Accent colour').fill('#aa3300');
    await screenshot(page, 'portal-editor');

    // The preview renders the form as typed, through the deployed page's renderer; nothing is saved yet.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.frameLocator('iframe[name=preview]');
    // The frame shows the saved page (its own h1) until the posted preview replaces it: wait for the new one, then check it is the only one.
    await preview.locator('h1', { hasText: 'Every trail, remembered' }).waitFor({ timeout: 10_000 });
    await expect(preview.locator('h1').allTextContents()).resolves.toEqual(['Every trail, remembered']);
    await expect(preview.locator('body').textContent()).resolves.toMatch(/Photo journal[\s\S]*Offline maps[\s\S]*Is it free\?[\s\S]*Count me in/);
    expect((await saved()).source).toBe('default');
    await screenshot(page, 'portal-editor-preview');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'portal-editor-preview-top.png') });

    // A field the API refuses: its message next to the field, every other input kept, nothing cut or saved.
    const long = 'x'.repeat(121);
    await page.getByLabel(/^Headline \(/).fill(long);
    await submit('Save');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not saved');
    await expect(page.locator('#f-hero-headline-error').textContent()).resolves.toBe('hero.headline must be 1 to 120 characters long');
    await expect(page.getByLabel(/^Headline \(/).getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByLabel(/^Headline \(/).inputValue()).resolves.toBe(long);
    await expect(page.locator('#f-features-0-title').inputValue()).resolves.toBe('Photo journal');
    expect((await saved()).source).toBe('default');
    await screenshot(page, 'portal-editor-error');
    await page.getByLabel(/^Headline \(/).fill('Every trail, remembered');

    // Save and deploy: the deployment serves exactly that page.
    await page.getByLabel('Environment').selectOption('staging');
    await submit('Save and deploy');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved and deployed to staging');
    const stored = (await saved()).page;
    expect(stored).toMatchObject({
      hero: { headline: 'Every trail, remembered', subheadline: 'Log your hikes.\nShare the views.', ctaLabel: 'Start logging' },
      features: [
        { title: 'Photo journal', body: 'Pictures on the route.' },
        { title: 'Offline maps', body: 'Works without signal.' },
      ],
      faq: [{ question: 'Is it free?', answer: 'Yes, for ten hikes a month.' }],
      cta: { headline: 'Join the trail crew' },
      signup: { enabled: true, buttonLabel: 'Count me in', consentText: 'One e-mail a month, no more.', successMessage: 'See you on the trail!' },
      theme: { accent: '#AA3300' },
    });
    await Promise.all([page.waitForLoadState('load'), page.getByRole('link', { name: 'Open the deployment' }).click()]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Every trail, remembered');
    const body = (await page.locator('body').textContent()) ?? '';
    expect(body).toMatch(/Photo journal[\s\S]*Offline maps[\s\S]*Is it free\?[\s\S]*Count me in/);
    expect(await page.content()).toContain('--accent: #AA3300');
    await screenshot(page, 'portal-editor-deployed');
  });

  it('refuses a form without its CSRF token and answers a portal page, never the JSON envelope, for an unknown app', async () => {
    const cookie = (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await app.http().post(`/portal/apps/${appId}/editor`).set('cookie', cookie).type('form').send({ _action: 'save' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('Nothing was changed');
    const missing = await app.http().get('/portal/apps/app_00000000000000000000000000/editor').set('cookie', cookie);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.text).toContain('<h1>Not found</h1>');
    // `/portal` without its slash goes to the overview.
    const bare = await app.http().get('/portal').set('cookie', cookie).expect(303);
    expect(bare.headers.location).toBe('/portal/');
  });

  it('serves the editor at the contract’s address too, /portal/apps/<appId>/landing-page, signed in only', async () => {
    const cookie = (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const editor = await app.http().get(`/portal/apps/${appId}/landing-page`).set('cookie', cookie);
    expect(editor.status).toBe(200);
    expect(editor.headers['content-type']).toMatch(/^text\/html/);
    expect(editor.text).toContain('<h1>Landing page</h1>');
    // The same form as at /editor: it posts there, with the session's CSRF token.
    expect(editor.text).toContain(`<form method="post" action="/portal/apps/${appId}/editor"`);
    expect(editor.text).toMatch(/name="_csrf" value="[^"]+"/);
    // Signed out: the sign-in page, as every portal page; another account's (or no) app: the 404 page.
    const signedOut = await app.http().get(`/portal/apps/${appId}/landing-page`).expect(303);
    expect(signedOut.headers.location).toMatch(/^\/portal\/login/);
    const missing = await app.http().get('/portal/apps/app_00000000000000000000000000/landing-page').set('cookie', cookie);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Not found</h1>');
  });
});

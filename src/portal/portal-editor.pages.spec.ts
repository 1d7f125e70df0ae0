import { validateForm } from './portal-forms.js';
import { changeList, pageFromForm } from './portal-editor.pages.js';
import { LandingPageDto } from '../landing-pages/dto/landing-page.dto.js';

const form = {
  _csrf: 'token',
  _action: 'save',
  'hero.headline': 'Tides',
  'hero.subheadline': 'Line one\r\nline two',
  'hero.ctaLabel': 'Go',
  'features.2.title': 'Third',
  'features.2.body': 'C',
  'features.0.title': 'First',
  'features.0.body': 'A',
  'faq.0.question': 'Q?',
  'faq.0.answer': 'A.',
  'cta.headline': '',
  'signup.enabled': 'on',
  'signup.buttonLabel': 'Join',
  'signup.consentText': '',
  'signup.successMessage': 'Thanks',
  'theme.accent': '#aa3300',
};

describe('the landing-page editor form', () => {
  it('reads the page from the fields named by their path, lists in index order, line breaks as \\n', () => {
    const page = pageFromForm(form);
    expect(page.hero.subheadline).toBe('Line one\nline two');
    expect(page.features).toEqual([
      { title: 'First', body: 'A' },
      { title: 'Third', body: 'C' },
    ]);
    expect(page.signup.enabled).toBe(true);
    expect(pageFromForm({ ...form, 'signup.enabled': undefined }).signup.enabled).toBe(false);
  });

  it('adds, moves and removes items, and says why when it cannot', () => {
    const page = pageFromForm(form);
    expect(changeList(page, 'features', 'down', 0)).toBeUndefined();
    expect(page.features.map((f) => f.title)).toEqual(['Third', 'First']);
    expect(changeList(page, 'features', 'add', NaN)).toBeUndefined();
    expect(page.features).toHaveLength(3);
    expect(changeList(page, 'features', 'remove', 2)).toBeUndefined();
    expect(changeList(page, 'faq', 'remove', 5)).toBe('There is no question 6.');
    for (let i = 0; i < 4; i++) changeList(page, 'features', 'add', NaN);
    expect(changeList(page, 'features', 'add', NaN)).toBe('A page has at most 6 features.');
  });

  it("is checked by the API's DTO: the API's message by field path, nothing cut", async () => {
    const checked = await validateForm(LandingPageDto, pageFromForm({ ...form, 'hero.headline': 'x'.repeat(121), 'features.0.title': '' }));
    expect(checked).toEqual({
      ok: false,
      errors: {
        'hero.headline': 'hero.headline must be 1 to 120 characters long',
        'features.0.title': 'features.0.title must be 1 to 80 characters long',
      },
    });
    expect((await validateForm(LandingPageDto, pageFromForm(form))).ok).toBe(true);
  });
});

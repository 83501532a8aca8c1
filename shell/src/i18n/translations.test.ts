import i18next from 'i18next';
import { createTranslations } from './translations';

function setup() {
  const fetched: string[] = [];
  const translations = createTranslations();
  const bundle = (ns: string, lng: 'en' | 'ru', strings: Record<string, string>) => () => {
    fetched.push(`${ns}/${lng}`);
    return Promise.resolve(strings);
  };
  translations.add('shell', { en: bundle('shell', 'en', { hello: 'Hello' }), ru: bundle('shell', 'ru', { hello: 'Привет' }) });
  const i18n = i18next.createInstance();
  return { fetched, translations, i18n, bundle };
}

describe('lazy translations', () => {
  it('an English page fetches English only', async () => {
    const { fetched, translations, i18n } = setup();
    await i18n.use(translations.backend).init({ lng: 'en', fallbackLng: 'en', ns: ['shell'], defaultNS: 'shell' });
    expect(i18n.t('hello')).toBe('Hello');
    expect(fetched).toEqual(['shell/en']);
  });

  it("a remote's namespace loads on registration and follows a language switch before it happens", async () => {
    const { fetched, translations, i18n, bundle } = setup();
    await i18n.use(translations.backend).init({ lng: 'en', fallbackLng: 'en', ns: ['shell'], defaultNS: 'shell' });
    await translations.forRemotes(i18n).register('auth', { en: bundle('auth', 'en', { title: 'Sign in' }), ru: bundle('auth', 'ru', { title: 'Вход' }) });
    expect(i18n.t('title', { ns: 'auth' })).toBe('Sign in');
    expect(fetched).toEqual(['shell/en', 'auth/en']);

    const seenAtSwitch: string[] = [];
    i18n.on('languageChanged', () => seenAtSwitch.push(i18n.t('title', { ns: 'auth' }), i18n.t('hello')));
    await i18n.changeLanguage('ru');
    expect(seenAtSwitch).toEqual(['Вход', 'Привет']);
    expect(fetched.sort()).toEqual(['auth/en', 'auth/ru', 'shell/en', 'shell/ru']);
  });

  it('a bundle that fails to load leaves the keys, not a crash', async () => {
    const translations = createTranslations();
    translations.add('shell', { en: () => Promise.reject(new Error('offline')), ru: () => Promise.resolve({}) });
    const i18n = i18next.createInstance();
    await i18n.use(translations.backend).init({ lng: 'en', fallbackLng: 'en', ns: ['shell'], defaultNS: 'shell', maxRetries: 0, retryTimeout: 0 });
    expect(i18n.t('hello')).toBe('hello');
  });
});

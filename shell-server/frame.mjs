// The first paint, before any script runs: the frame of the route's layout as static markup (the
// auth header with the brand title and the language select, or the cabinet's sidebar and
// header), in the page's language, with the theme's colours inlined. React replaces it with the
// same markup when it starts, so nothing moves. The strings are the shell's own, copied into its
// build (shared/build/frame.mjs).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_STRINGS } from '@app/build/outputs.mjs';
import { logoImages } from './brand-page.mjs';

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function lookup(strings, key, vars = {}) {
  let node = strings;
  for (const part of key.split('.')) node = node?.[part];
  return typeof node === 'string' ? node.replace(/\{\{(\w+)\}\}/g, (_, name) => vars[name] ?? '') : key;
}

const localePath = (path, locale) => (locale === 'ru' ? `/ru${path === '/' ? '' : path}` : path);

/**
 * The tokens of both themes for a page whose theme no script has set (JavaScript off): light,
 * or dark when the system asks for it. Taken from the design system's own rules, so they never
 * differ from what the stylesheet says.
 */
export function systemThemeCss(css) {
  const block = (theme) => new RegExp(`\\[data-theme=['"]?${theme}['"]?\\]\\s*\\{([^}]*)\\}`).exec(css)?.[1]?.trim();
  const light = block('light');
  const dark = block('dark');
  if (!light || !dark) return '';
  return `:root:not([data-theme]){${light}}@media (prefers-color-scheme: dark){:root:not([data-theme]){${dark}}}`;
}

/**
 * @param {{ en: object, ru: object }} allStrings
 * @returns {(page: { layout: 'auth' | 'inner' | undefined, locale: 'en' | 'ru', title: string, logo?: { light: string, dark: string } }) => string}
 */
export function createFrameRenderer(allStrings) {
  return function renderFrame({ layout, locale, title, logo }) {
    const strings = allStrings?.[locale] ?? allStrings?.en;
    if (!strings || !layout) return '';
    const t = (key, vars) => escapeHtml(lookup(strings, key, vars));
    const loading = `<p class="remote-loading">${t('remote.loading')}</p>`;
    const languageSelect = (id) =>
      `<div class="field field--inline"><label for="${id}">${t('header.language')}</label><select id="${id}">` +
      `<option value="en"${locale === 'en' ? ' selected' : ''}>ENG</option><option value="ru"${locale === 'ru' ? ' selected' : ''}>RUS</option></select></div>`;
    // The choice is only known to the page's script; the page's colours are right regardless.
    const themeSwitch = (name) =>
      `<fieldset class="theme-switch"><legend>${t('theme.label')}</legend>` +
      ['light', 'dark', 'system'].map((c) => `<label class="theme-switch__option"><input type="radio" name="${name}" value="${c}">${t(`theme.${c}`)}</label>`).join('') +
      `</fieldset>`;
    const link = (path, className, text) => `<a class="${className}" href="${localePath(path, locale)}">${text}</a>`;
    if (layout === 'auth') {
      const home =
        `<a aria-label="${t('brand.logo', { title })}" class="logo" href="${localePath('/', locale)}">` +
        `<span class="logo__mark" aria-hidden="true">${logo ? logoImages(logo) : '◆'}</span><span class="logo__title">${escapeHtml(title)}</span></a>`;
      return (
        `<div class="auth-layout"><header class="header header--auth">${home}<div class="header__actions">${languageSelect('auth-language')}` +
        `${link('/sign-in', 'btn btn--outline', t('header.signIn'))}${link('/sign-up', 'btn btn--primary', t('header.signUp'))}</div></header>` +
        `<main class="content content--auth" id="main">${loading}</main>` +
        `<footer class="footer">${themeSwitch('auth-theme')}<button type="button" class="btn btn--link">${t('footer.terms')}</button></footer></div>`
      );
    }
    const menu = [
      ['/cabinet/dashboard', 'nav.dashboard'],
      ['/cabinet/pools/stable', 'nav.pools'],
      ['/cabinet/refferal', 'nav.referral'],
      ['/cabinet/settings', 'nav.settings'],
    ]
      .map(([path, key]) => `<li>${link(path, 'menu__link', t(key))}</li>`)
      .join('');
    return (
      `<div class="inner-layout sidebar-expanded"><aside class="sidebar is-expanded sidebar--frame" aria-label="${t('nav.menu')}">` +
      `<nav aria-label="${t('nav.main')}"><ul class="menu">${menu}</ul></nav></aside><div class="inner-layout__main"><header class="header">` +
      `<p class="header__greeting">${t('header.greetingGuest')}</p><div class="header__actions">${languageSelect('inner-language')}</div></header>` +
      `<main class="content" id="main">${loading}</main></div></div>`
    );
  };
}

/** The frame renderer for a shell build, or one that draws nothing if the build has no strings. */
export function frameRendererFor(dir) {
  try {
    return createFrameRenderer(JSON.parse(readFileSync(join(dir, FRAME_STRINGS), 'utf8')));
  } catch {
    return () => '';
  }
}


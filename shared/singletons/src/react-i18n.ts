// The part of react-i18next the front ends use. Module Federation shares a module whole: all of
// it, with the HTML parser behind <Trans>, is about 11 KB gzipped; this list about 4 KB.
// Add a name here (and bump the minor version) before using it.
export { I18nextProvider, useTranslation } from 'react-i18next';

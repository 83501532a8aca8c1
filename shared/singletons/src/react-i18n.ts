// The part of react-i18next the front ends use. Module Federation shares a module whole: all of
// it would bring the HTML parser behind <Trans> to every page.
// Add a name here (and bump the minor version) before using it.
export { I18nextProvider, useTranslation } from 'react-i18next';

import { createRemote } from '@app/ui';
import { App } from './App';

const remote = createRemote({
  namespace: 'operator',
  translations: { en: () => import('./i18n/en.json').then((m) => m.default), ru: () => import('./i18n/ru.json').then((m) => m.default) },
  App,
});

export const { contractVersion, bootstrap, mount, unmount, update } = remote;

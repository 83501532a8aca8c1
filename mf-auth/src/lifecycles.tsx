import { createRemote } from '@app/ui';
import en from './i18n/en.json';
import ru from './i18n/ru.json';
import { App } from './App';

const remote = createRemote({ namespace: 'auth', translations: { en, ru }, App });

export const { contractVersion, bootstrap, mount, unmount, update } = remote;

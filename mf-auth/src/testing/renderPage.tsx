import type { ReactElement } from 'react';
import { renderRemote, type RemoteSetup, type RenderedRemote } from '@app/ui/testing';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';

export { deferred, shellApiError } from '@app/ui/testing';

export type PageSetup = Omit<RemoteSetup, 'namespace' | 'strings'>;
export type RenderedPage = RenderedRemote;

/** An auth page as the shell mounts it, for a visitor unless the setup says otherwise. */
export function renderPage(ui: ReactElement, setup: PageSetup): RenderedPage {
  return renderRemote(ui, { namespace: 'auth', strings: { en, ru }, ...setup });
}

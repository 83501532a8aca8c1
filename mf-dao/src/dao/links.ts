import { useCallback, type MouseEvent } from 'react';
import { useRemote } from '@app/ui';

/** Links inside the remote: the page's locale prefix, and client-side navigation through the shell. */
export function useLocaleLink() {
  const { basename, bus } = useRemote();
  const href = useCallback((path: string) => `${basename}${path}`, [basename]);
  const navigate = (path: string) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    bus.send({ type: 'navigate', to: `${basename}${path}` });
  };
  return Object.assign(href, { navigate });
}

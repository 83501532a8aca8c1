import { useCallback, type MouseEvent } from 'react';
import { useRemote } from '@app/ui';
import { grouping } from '@app/web3';

/** A dollar amount (an exact decimal string) for people: grouped, two decimals, never through a float sum. */
export function formatUsd(value: string, lang: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const cents = (fraction + '00').slice(0, 2);
  const grouped = grouping(lang === 'ru' ? 'ru-RU' : 'en-US').format(BigInt(whole));
  return `$${grouped}${lang === 'ru' ? ',' : '.'}${cents}`;
}

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

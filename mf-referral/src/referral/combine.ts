import type { Loadable } from '@app/ui';

/** Two loads as one for a panel that needs both: ready when both are, an error when either fails. */
export function both<A, B>(a: Loadable<A>, b: Loadable<B>): Loadable<[A, B]> {
  if (a.status === 'error') return a;
  if (b.status === 'error') return b;
  if (a.status === 'ready' && b.status === 'ready') return { status: 'ready', data: [a.data, b.data] };
  return { status: 'loading' };
}

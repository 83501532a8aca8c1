import { useCallback } from 'react';
import type { Notification } from '@app/contracts';
import { useRemote } from './remote/RemoteContext';

/**
 * Notices through the shell (top-center, spec §2). One the shell refuses must not undo what the
 * caller did (a navigation, a recorded deposit), so a refusal is logged, not thrown.
 */
export function useNotify(): (notification: Notification) => void {
  const { bus } = useRemote();
  return useCallback(
    (notification: Notification) => {
      try {
        bus.send({ type: 'notify', notification });
      } catch (error) {
        console.error('notification refused', error);
      }
    },
    [bus],
  );
}

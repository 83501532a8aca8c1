import { useCallback } from 'react';
import type { Notification } from '@app/contracts';
import { useRemote } from '@app/ui';

/** Notices through the shell (top-center, spec §2); one it refuses must not stop what the form did. */
export function useNotify() {
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

import { BehaviorSubject } from '@app/singletons/rx';
import type { Notification } from '@app/contracts';
import type { ShellBus } from '@app/ui';

/** Spec §9: a notification stays 3000 ms, and at most 3 show at once. */
export const NOTIFICATION_MS = 3000;
export const MAX_NOTIFICATIONS = 3;

export interface ShownNotification extends Notification {
  id: number;
}

// Timers are called as plain functions: window.setTimeout called as a method of another object
// throws 'Illegal invocation' in browsers.
export function createNotificationCenter(bus: ShellBus, schedule: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms)) {
  const shown = new BehaviorSubject<ShownNotification[]>([]);
  let nextId = 1;
  const dismiss = (id: number) => shown.next(shown.getValue().filter((n) => n.id !== id));
  const show = (notification: Notification) => {
    const item = { ...notification, id: nextId++ };
    // The oldest gives way when a fourth arrives.
    shown.next([...shown.getValue(), item].slice(-MAX_NOTIFICATIONS));
    schedule(() => dismiss(item.id), NOTIFICATION_MS);
  };
  bus.commands$.subscribe((command) => {
    if (command.type === 'notify') show(command.notification);
  });
  return { shown, show, dismiss };
}
export type NotificationCenter = ReturnType<typeof createNotificationCenter>;

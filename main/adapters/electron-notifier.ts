// OS notifications through Electron (Windows toasts, macOS Notification Center, libnotify).
import { Notification } from 'electron';
import type { Notice, Notifier } from '../core/agent/host/host-ports';

/** A Notifier that shows native notifications; clicking one calls `onClick` with its notice. */
export function electronNotifier(onClick: (notice: Notice) => void): Notifier {
  // Kept referenced until closed: a garbage-collected Notification loses its click handler.
  const live = new Set<Notification>();
  return {
    notify(notice) {
      if (!Notification.isSupported()) return;
      const n = new Notification({ title: notice.title, body: notice.body, silent: notice.kind === 'exam_ready' });
      live.add(n);
      n.on('click', () => onClick(notice));
      n.on('close', () => live.delete(n));
      n.show();
    },
  };
}

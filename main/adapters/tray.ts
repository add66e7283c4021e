// The tray icon: the app's face while every window is closed. Its image shows the upload status.
import { Menu, Tray, nativeImage } from 'electron';
import type { NativeImage } from 'electron';

import type { AgentStatus } from '../../preload/contract/vocabulary';

/** What the tray shows: the uploads as a whole. */
export type TrayState = AgentStatus;

export type TrayLabels = { open: string; quit: string; tooltip: Record<TrayState, string> };

export type AppTray = { setState(state: TrayState): void; setLabels(labels: TrayLabels): void; destroy(): void };

/** Creates the tray icon. The caller must keep the returned object referenced (a collected Tray disappears). */
export function createAppTray(options: {
  icon: (state: TrayState) => string;
  labels: TrayLabels;
  onOpen: () => void;
  onQuit: () => void;
}): AppTray {
  const images = new Map<TrayState, NativeImage>();
  const image = (state: TrayState): NativeImage => {
    let img = images.get(state);
    if (!img) {
      img = nativeImage.createFromPath(options.icon(state));
      images.set(state, img);
    }
    return img;
  };
  let state: TrayState = 'idle';
  let labels = options.labels;
  const tray = new Tray(image(state));
  const refresh = (): void => {
    tray.setToolTip(labels.tooltip[state]);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: labels.open, click: options.onOpen },
        { type: 'separator' },
        { label: labels.quit, click: options.onQuit },
      ]),
    );
  };
  tray.on('click', options.onOpen);
  refresh();
  return {
    setState(next) {
      if (next === state) return;
      state = next;
      tray.setImage(image(state));
      tray.setToolTip(labels.tooltip[state]);
    },
    setLabels(next) {
      labels = next;
      refresh();
    },
    destroy() {
      tray.destroy();
    },
  };
}

import { notifications } from '@mantine/notifications';
import { IconCheck, IconHourglass, IconX } from '@tabler/icons-react';

/** Toasts: top right, closing after 5000 ms (set on the Notifications host). */
export const toast = {
  success: (message: string, title?: string) =>
    notifications.show({ message, title, color: 'teal', icon: <IconCheck size={18} aria-hidden /> }),
  error: (message: string, title?: string) =>
    notifications.show({ message, title, color: 'red', icon: <IconX size={18} aria-hidden /> }),
  /** accepted, but not done yet (e.g. held for a second person's approval) */
  info: (message: string, title?: string) =>
    notifications.show({ message, title, color: 'yellow', icon: <IconHourglass size={18} aria-hidden /> }),
};

export const TOAST_AUTO_CLOSE_MS = 5000;

import { ActionIcon, CopyButton, Tooltip, type ActionIconProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

type Props = {
  value: string;
  /** what is copied, for screen readers: "Copy {what}" */
  what: string;
  variant?: ActionIconProps['variant'];
  /** the icon's colour before anything is copied (teal once it is) */
  color?: string;
  size?: ActionIconProps['size'];
};

/** A copy control: an icon button with a "Copy" / "Copied" tooltip (secrets, keys, setup keys). */
export function CopyIconButton({ value, what, variant = 'light', color = 'blue', size }: Props) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
          <ActionIcon
            variant={variant}
            color={copied ? 'teal' : color}
            size={size}
            onClick={copy}
            aria-label={copied ? 'Copied' : `Copy ${what}`}
          >
            {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

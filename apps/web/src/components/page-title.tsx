import { useEffect, type ReactNode } from 'react';
import { Group, Title } from '@mantine/core';

type Props = { title: string; children?: ReactNode };

/** The page's one h1, also used as the document title; children go to the right (actions). */
export function PageTitle({ title, children }: Props) {
  useEffect(() => {
    document.title = `${title} · Paydesk`;
  }, [title]);
  return (
    <Group justify="space-between" align="center" mb="lg" wrap="wrap">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {children}
    </Group>
  );
}

import { useEffect, type ReactNode } from 'react';
import { Group, Title } from '@mantine/core';

type Props = { title: string; children?: ReactNode };

/** The browser tab's title for a page. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · Paydesk`;
  }, [title]);
}

/** The page's one h1, also used as the document title; children go to the right (actions). */
export function PageTitle({ title, children }: Props) {
  useDocumentTitle(title);
  return (
    <Group justify="space-between" align="center" mb="lg" wrap="wrap">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {children}
    </Group>
  );
}

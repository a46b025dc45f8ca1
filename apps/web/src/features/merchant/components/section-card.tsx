import { useId, type ReactNode } from 'react';
import { Card, Text, Title } from '@mantine/core';

/** One titled part of the merchant profile, announced as a region by its heading. */
export function SectionCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card withBorder p="lg" component="section" aria-labelledby={id}>
      <Title order={2} fz="h4" id={id} mb={description ? 0 : 'md'}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mt={4} mb="md">
          {description}
        </Text>
      )}
      {children}
    </Card>
  );
}

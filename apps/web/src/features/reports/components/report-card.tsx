import type { ReactNode } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconDownload } from '@tabler/icons-react';
import { Controller, type Control, type FieldErrors, type FieldValues, type Path } from 'react-hook-form';

const DATE_FORMAT = 'YYYY-MM-DD';

type DatesProps<T extends FieldValues> = {
  control: Control<T>;
  errors: FieldErrors<T>;
  from: string;
  to: string;
};

/** Date From and Date To, required and limiting each other (from's max is to, to's min is from). */
export function ReportDates<T extends FieldValues>({ control, errors, from, to }: DatesProps<T>) {
  const err = (k: string) => (errors as Record<string, { message?: string } | undefined>)[k]?.message;
  return (
    <Group grow align="flex-start">
      <Controller
        control={control}
        name={'periodStart' as Path<T>}
        render={({ field }) => (
          <DateInput
            label="Date From"
            withAsterisk
            valueFormat={DATE_FORMAT}
            placeholder={DATE_FORMAT}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            maxDate={to || undefined}
            error={err('periodStart')}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear Date From' }}
          />
        )}
      />
      <Controller
        control={control}
        name={'periodEnd' as Path<T>}
        render={({ field }) => (
          <DateInput
            label="Date To"
            withAsterisk
            valueFormat={DATE_FORMAT}
            placeholder={DATE_FORMAT}
            value={field.value || null}
            onChange={(v) => field.onChange(v ?? '')}
            onBlur={field.onBlur}
            minDate={from || undefined}
            error={err('periodEnd')}
            clearable
            clearButtonProps={{ 'aria-label': 'Clear Date To' }}
          />
        )}
      />
    </Group>
  );
}

type CardProps = { title: string; description: string; onSubmit: () => void; loading: boolean; children: ReactNode };

/**
 * One report: its fields and a Get report button that says "Preparing your file…" until the server answers; the
 * browser's own download UI shows the file's progress after that.
 */
export function ReportCard({ title, description, onSubmit, loading, children }: CardProps) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          <div>
            <Title order={2} fz="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </div>
          {children}
          <Group justify="flex-end" gap="sm">
            {loading && (
              <Text size="sm" c="dimmed" role="status">
                Preparing your file…
              </Text>
            )}
            <Button type="submit" loading={loading} leftSection={<IconDownload size={16} aria-hidden />}>
              Get report
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

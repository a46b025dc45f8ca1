import { Alert, Anchor, Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { EndpointHealth } from '@paydesk/contracts/callbacks';
import { formatDateLong } from '@paydesk/contracts/dates';
import { SectionLoader } from '../../../components/full-page-loader';
import { formatCount } from '../../../lib/format';
import { useEndpointHealth } from '../api/callbacks';
import { formatRate, lastAnswer } from '../model/callback-filters';
import { SectionCard } from './section-card';

const STATE: Record<EndpointHealth['state'], { label: string; color: string }> = {
  HEALTHY: { label: 'Healthy', color: 'green' },
  FAILING: { label: 'Failing', color: 'red' },
  IDLE: { label: 'No deliveries yet', color: 'gray' },
};

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}

/**
 * The merchant's callback endpoint at a glance (merchant.callback.read): healthy or failing by its latest attempt,
 * the last success, the attempts that failed since, the last day's success rate, the deliveries waiting and the URLs
 * in use; with links to the deliveries (`links`) on the profile.
 */
export function CallbackEndpointCard({ merchant, links }: { merchant: string | null; links?: boolean }) {
  const { data: h, isPending, error } = useEndpointHealth(merchant);
  if (isPending) return <SectionLoader label="Loading callback endpoint" />;
  if (error) return <Alert color="red">{error.message}</Alert>;
  if (!h) return null;
  const state = STATE[h.state];
  const rate = formatRate(h.successRate24h);
  return (
    <SectionCard
      title="Callback endpoint"
      description={
        h.urls.length ? (
          <Stack gap={2} component="span">
            {h.urls.map((u) => (
              <Text key={u} component="span" size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {u}
              </Text>
            ))}
          </Stack>
        ) : (
          'No callback URL used yet'
        )
      }
    >
      <Group gap="sm" mb="md">
        <Badge color={state.color} variant="light" size="lg" data-testid="endpoint-state">
          {state.label}
        </Badge>
        {h.state === 'FAILING' && lastAnswer(h) && (
          <Text size="sm" c="dimmed">
            Last answer: {lastAnswer(h)}
          </Text>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="sm">
        <Figure label="Last success" value={h.lastSuccessAt ? formatDateLong(h.lastSuccessAt) : 'Never'} />
        <Figure label="Failed attempts since" value={formatCount(h.consecutiveFailures)} />
        <Figure
          label="Success rate (24 h)"
          value={
            rate === null
              ? 'No attempts'
              : `${rate} (${formatCount(h.succeeded24h)} of ${formatCount(h.attempts24h)} attempts)`
          }
        />
        <Figure label="Waiting to be sent" value={formatCount(h.pending)} />
      </SimpleGrid>
      {links && (
        <Group gap="lg" mt="md">
          <Anchor component={Link} to={{ search: '?tab=callbacks' }} size="sm">
            View deliveries
          </Anchor>
          <Anchor component={Link} to={{ search: '?tab=callbacks&status=FAILED' }} size="sm">
            View failed deliveries
          </Anchor>
        </Group>
      )}
    </SectionCard>
  );
}

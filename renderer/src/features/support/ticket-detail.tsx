import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';
import { useTicket } from './support-queries';
import { Loading } from '../../components/loading';

/** One ticket: what was asked, and support's replies oldest first. */
export function TicketDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const lang = useLanguage();
  const detail = useTicket(id);
  const d = detail.data;
  const statusKey = `support.status.${d?.ticket.status ?? ''}`;
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="ticket-title" data-testid="ticket-detail">
      <Stack gap="sm">
        {detail.isPending && <Loading />}
        <ErrorAlert error={detail.error} />
        {d && (
          <>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={2}>
                <Title order={3} size="h4" id="ticket-title">
                  {d.ticket.subject}
                </Title>
                <Text size="xs" c="dimmed">
                  {t(`support.categories.${d.ticket.category}`, { defaultValue: d.ticket.category })} · {d.ticket.id}
                  {d.ticket.exam_id ? ` · ${t('support.examShort', { id: d.ticket.exam_id })}` : ''}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                {d.ticket.status && (
                  <Badge variant="light">{i18n.exists(statusKey) ? t(statusKey) : d.ticket.status}</Badge>
                )}
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => void detail.refetch()}
                  loading={detail.isRefetching}
                  data-testid="ticket-refresh"
                >
                  {t('support.checkReplies')}
                </Button>
              </Group>
            </Group>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="ticket-message-shown">
              {d.ticket.message}
            </Text>
            <Title order={4} size="h5" mt="sm">
              {t('support.replies')}
            </Title>
            {d.replies.length === 0 ? (
              <Text size="sm" c="dimmed" data-testid="ticket-no-replies">
                {t('support.noReplies')}
              </Text>
            ) : (
              <Stack gap="xs" component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {d.replies.map((r, i) => (
                  <li key={`${r.created_at}-${i}`} data-testid="ticket-reply">
                    <Paper p="sm" bg="gray.0" withBorder>
                      <Text size="xs" c="dimmed" mb={4}>
                        {t('support.replyFrom')} {r.created_at ? `· ${formatTime(r.created_at, lang)}` : ''}
                      </Text>
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                        {r.body}
                      </Text>
                    </Paper>
                  </li>
                ))}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

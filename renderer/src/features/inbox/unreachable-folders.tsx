// The Inbox says which watch folders cannot be reached (a share dropped, a folder renamed away)
// and since when: scanner exports landing there are not seen until it is back. ScanBridge keeps
// looking and watches it again by itself; what arrived meanwhile is then picked up.
import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WatchFolder } from '../../../../preload/contract';
import { formatTime } from '../../components/format';
import { useLanguage } from '../../components/use-language';

export function UnreachableFolders({ folders }: { folders: readonly WatchFolder[] | undefined }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const away = (folders ?? []).filter((f) => f.unreachable_since);
  if (away.length === 0) return null;
  return (
    <>
      {away.map((f) => (
        <Alert
          key={f.id}
          color="orange"
          variant="light"
          role="status"
          title={t('inbox.folderUnreachable.title', {
            path: f.path,
            since: formatTime(f.unreachable_since ?? '', lang),
          })}
          data-testid="folder-unreachable"
        >
          <Text size="sm">{t('inbox.folderUnreachable.body')}</Text>
        </Alert>
      ))}
    </>
  );
}

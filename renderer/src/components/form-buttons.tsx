import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  /** The submit button's words (Save, Create…). */
  submit: string;
  loading: boolean;
  onCancel: () => void;
  testId: string;
};

/** The end of a form: Cancel, then the button that sends it (the form's submit, so Enter sends too). */
export function FormButtons({ submit, loading, onCancel, testId }: Props) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" loading={loading} data-testid={testId}>
        {submit}
      </Button>
    </Group>
  );
}

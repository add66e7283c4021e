import { Button } from '@mantine/core';

type Props = {
  label: string;
  /** What a screen reader hears: the action and the thing it acts on ("Delete Ana Pérez"). */
  name?: string;
  onClick: () => void;
  /** Deleting or removing: red words, told apart from the buttons beside it. */
  danger?: boolean;
  loading?: boolean;
  testId?: string;
};

/** A small secondary action of a row or a card (edit, rename, remove…). */
export function RowAction({ label, name, onClick, danger, loading, testId }: Props) {
  return (
    <Button
      size="xs"
      variant="default"
      c={danger ? 'red.9' : undefined}
      onClick={onClick}
      aria-label={name}
      loading={loading}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}

// A field for a decimal (a length, a diameter, a percentage): accepts `4,1` and `4.1` alike
// (decimal.ts), tells at once when the value is impossible for the field, and hands the parent the
// reading of what is typed (empty, a number, or refused).
import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DecimalResult, type DecimalRule, formatDecimal, parseDecimal } from './decimal';
import { useLanguage } from './use-language';

export function DecimalInput({
  label,
  value,
  onChange,
  rule,
  unit,
  testId,
  size,
  w,
  placeholder,
  description,
}: {
  label: string;
  description?: string;
  /** The value the parent holds (null: empty); shown when it changes from outside. */
  value: number | null;
  onChange: (result: DecimalResult) => void;
  rule: DecimalRule;
  /** Shown after the field ("mm", "%"), and allowed after the number. */
  unit?: string;
  testId?: string;
  size?: 'xs' | 'sm';
  w?: number;
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const [text, setText] = useState(value === null ? '' : formatDecimal(value, lang, rule.decimals));
  const [touched, setTouched] = useState(false);
  const reading = parseDecimal(text, rule, unit);
  // A value set from outside (another field, a drag on the page) replaces what is typed.
  useEffect(() => {
    const current = parseDecimal(text, rule, unit);
    const shown = current.kind === 'ok' ? current.value : null;
    if (shown !== value) setText(value === null ? '' : formatDecimal(value, lang, rule.decimals));
  }, [value]);
  const min = formatDecimal(rule.min, lang, rule.decimals);
  const max = formatDecimal(rule.max, lang, rule.decimals);
  const error =
    touched && reading.kind === 'bad'
      ? t(`decimal.${reading.reason}`, { min, max, unit: unit ?? '', decimals: rule.decimals ?? 0 })
      : undefined;
  return (
    <TextInput
      label={label}
      description={description}
      value={text}
      size={size}
      w={w}
      placeholder={placeholder}
      inputMode="decimal"
      autoComplete="off"
      rightSection={unit}
      rightSectionWidth={unit ? 36 : undefined}
      error={error}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const r = parseDecimal(next, rule, unit);
        if (r.kind === 'bad' && r.reason !== 'not_a_number') setTouched(true);
        onChange(r);
      }}
      onBlur={() => setTouched(true)}
      data-testid={testId}
    />
  );
}

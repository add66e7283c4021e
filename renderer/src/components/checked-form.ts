// The window's forms: @mantine/form keeps the values and the errors, a zod schema says what is
// wrong. A schema's messages are not sentences but short problem codes (`email_invalid`); the form
// turns them into the user's language through i18next when it shows them, so a language switch
// re-words the errors already on screen and the rules stay testable without a window.
import { schemaResolver, useForm, type FormErrors, type UseFormInput, type UseFormReturnType } from '@mantine/form';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';

/**
 * An e-mail address by the rule the contract checks with (zod's `z.email()`), so the window never
 * accepts an address the core would refuse. The one e-mail rule of the window.
 */
export const emailAddress = z.email();

/** True when `text` (already trimmed) is an e-mail address by the contract's rule. */
export function isEmailAddress(text: string): boolean {
  return emailAddress.safeParse(text).success;
}

/** A text field that may stay empty, or else holds one e-mail address of at most `max` characters. */
export function optionalEmail(problem: string, max = 320): z.ZodType<string, string> {
  return z
    .string()
    .trim()
    .refine((s) => s === '' || (s.length <= max && isEmailAddress(s)), problem);
}

/** The problem codes a schema finds in `values`, by field path (the first problem of each field). */
export function problemsOf(schema: z.ZodType, values: unknown): Record<string, string> {
  return schemaResolver(schema, { sync: true })(values) as Record<string, string>;
}

/** A form whose checks run synchronously: `validate()` and `isValid()` answer at once. */
export type CheckedForm<Values> = UseFormReturnType<Values, Values, (values: Values) => FormErrors>;

type CheckedFormOptions<Values> = Pick<
  UseFormInput<Values>,
  'clearInputErrorOnChange' | 'validateInputOnBlur' | 'validateInputOnChange' | 'onValuesChange'
> & {
  /**
   * Once the form has been submitted or `form.validate()`d, every change checks it again: the errors
   * come and go as the user types (until `form.reset()`).
   */
  recheckAfterSubmit?: boolean;
};

/**
 * A form checked by `schema`, errors shown in the user's language. With `problemKey`, the schema's
 * messages are problem codes and `problemKey(code)` names their i18next key (e.g.
 * `referrers.problems.${code}`); without it they are already sentences (a schema built with `t`,
 * for messages that quote what was typed). Errors appear when the form is submitted (`form.onSubmit`
 * validates) and, unless `options` says otherwise, a field's error goes as soon as it is edited.
 */
export function useCheckedForm<Values extends Record<string, unknown>>(
  schema: z.ZodType,
  initialValues: Values,
  problemKey?: (code: string) => string,
  options: CheckedFormOptions<Values> = {},
): CheckedForm<Values> {
  const { t } = useTranslation();
  const { recheckAfterSubmit = false, onValuesChange, ...formOptions } = options;
  const tried = useRef(false);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: schemaResolver(schema, { sync: true }) as (values: Values) => FormErrors,
    ...formOptions,
    onValuesChange: (values, previous) => {
      onValuesChange?.(values, previous);
      if (tried.current) form.setErrors(problemsOf(schema, values));
    },
    enhanceGetInputProps: ({ inputProps }) => {
      const code: unknown = inputProps.error;
      if (typeof code !== 'string' || !code) return { error: undefined };
      return { error: problemKey ? t(problemKey(code)) : code };
    },
  });
  if (!recheckAfterSubmit) return form;
  const onSubmit: typeof form.onSubmit = (handleSubmit, handleFailure) => (event) => {
    tried.current = true;
    form.onSubmit(handleSubmit, handleFailure)(event);
  };
  const validate: typeof form.validate = () => {
    tried.current = true;
    return form.validate();
  };
  const reset: typeof form.reset = () => {
    tried.current = false;
    form.reset();
  };
  return { ...form, onSubmit, validate, reset };
}

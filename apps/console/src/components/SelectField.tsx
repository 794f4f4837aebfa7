import type { ComponentChildren, ComponentProps } from 'preact';
import { useId } from 'preact/hooks';

type SelectFieldProps = ComponentProps<'select'> & { label: string; children: ComponentChildren };

/**
 * A labelled select whose accessible name is its label alone: a label wrapped around a select
 * would also read out the select's options.
 */
export function SelectField({ label, children, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
    </div>
  );
}

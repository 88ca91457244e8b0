/** What every create/edit form of the admin UI takes: the values to start from and the mutation's state. */
export type FormProps<T> = {
  initial?: Partial<T>;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (values: T) => void;
  onCancel?: () => void;
};

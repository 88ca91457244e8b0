'use client';

import { Button } from './ui';
import { LEAVE_MESSAGE } from './unsaved';

/**
 * A form's buttons, the same everywhere: submit (busy while saving; for an edit, enabled once something
 * changed), cancel (asks before throwing changes away), and a note while there are unsaved changes.
 */
export function FormActions({ submitLabel, busy, dirty, editing, onCancel }: { submitLabel: string; busy: boolean; dirty: boolean; editing: boolean; onCancel?: () => void }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="submit" busy={busy} disabled={busy || (editing && !dirty)}>
        {submitLabel}
      </Button>
      {onCancel && (
        <Button variant="secondary" onClick={() => (!dirty || window.confirm(LEAVE_MESSAGE)) && onCancel()}>
          Cancel
        </Button>
      )}
      {editing && dirty && !busy && <span className="text-sm text-amber-800">Unsaved changes</span>}
    </div>
  );
}

/**
 * After a successful save, the values saved become the form's clean state (react-hook-form `reset`).
 * A kept page (issue 21 keep-alive, src/layout/keepAlive.tsx) stays mounted after react-admin's redirect
 * to the show page; without this its `isSubmitSuccessful` would stay true, and react-admin's
 * unsaved-edits prompt (`useWarnWhenUnsavedChanges`, which never asks after a successful submit) would
 * not guard the edits typed on coming back to it. Rendered inside the form (its toolbar).
 */
import { useEffect } from 'react';
import { useFormContext, useFormState } from 'react-hook-form';

export function CleanAfterSave() {
  const { isSubmitSuccessful } = useFormState();
  const { reset, getValues } = useFormContext();
  useEffect(() => {
    if (isSubmitSuccessful) reset(getValues());
  }, [isSubmitSuccessful, reset, getValues]);
  return null;
}

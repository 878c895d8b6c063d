import { Text } from "~/ui/typography";
import { useField } from "remix-validated-form";
import { TRIAL_DURATION, TRIAL_USERS } from "~/domain/trial-steps";
import { SimpleGrid } from "~/ui/layout";
import { TextField } from "../fields";

/**
 * The trial's Hub fields: users, employees and duration, and the
 * start date as a hidden field (today unless the draft has a later one). Bounded on the server too.
 */
export function TrialHubFields() {
  const start = useField("startDate");
  return (
    <>
      <input type="hidden" name="startDate" value={String(start.defaultValue ?? "")} />
      {start.error ? (
        <Text size="sm" c="red.9" role="alert">
          Start date: {start.error}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextField
          name="nodes"
          label="Users in the trial"
          description={`${TRIAL_USERS.min} to ${TRIAL_USERS.max}: one token per user`}
          type="number"
          min={TRIAL_USERS.min}
          max={TRIAL_USERS.max}
          required
        />
        <TextField
          name="employees"
          label="Total employees"
          description="Everyone in your organization"
          type="number"
          min={1}
          required
        />
        <TextField
          name="duration"
          label="Duration (days)"
          description={`${TRIAL_DURATION.min} to ${TRIAL_DURATION.max} days`}
          type="number"
          min={TRIAL_DURATION.min}
          max={TRIAL_DURATION.max}
          required
        />
      </SimpleGrid>
    </>
  );
}

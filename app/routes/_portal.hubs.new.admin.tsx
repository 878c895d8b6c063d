import { SimpleGrid } from "@mantine-parts/components/SimpleGrid/SimpleGrid.mjs";
import { Stack } from "@mantine-parts/components/Stack/Stack.mjs";
import { Text } from "@mantine-parts/components/Text/Text.mjs";
import { withZod } from "@remix-validated-form/with-zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ValidatedForm, validationError } from "remix-validated-form";
import { adminStepSchema } from "~/domain/cloud-hub";
import { cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { cloudHubWizard } from "~/server/wizards/cloud-hub.server";
import { sealSecret } from "~/server/wizards/sealed.server";
import { TextField } from "~/ui/fields";
import { PageErrorBoundary } from "~/ui/page";
import { StepActions } from "~/ui/wizard/step-actions";

const validator = withZod(adminStepSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { data } = cloudHubWizard.load(user.id, "admin");
  const defaults = data.administrator ?? { userName: "", firstName: user.firstName, lastName: user.lastName, phoneNumber: "", email: user.email };
  return json({ defaults, passwordKept: Boolean(data.sealedPassword) });
}

/** The typed password is sealed before it is stored, and never sent back to the page, not even with an error. */
export async function action({ request }: ActionFunctionArgs) {
  const { user, formData } = await readUserForm(request);
  const result = await validator.validate(formData);
  if (result.error) {
    const { password: _password, confirmPassword: _confirmPassword, csrf: _csrf, ...typed } = result.submittedData;
    return validationError(result.error, typed);
  }
  const { password, confirmPassword: _confirmed, ...administrator } = result.data;
  return cloudHubWizard.complete(user.id, "admin", { administrator, sealedPassword: sealSecret(password) });
}

export default function AdminStep() {
  const { defaults, passwordKept } = useLoaderData<typeof loader>();
  return (
    <ValidatedForm validator={validator} method="post" defaultValues={defaults} noValidate>
      <AuthenticityTokenInput name="csrf" />
      <Stack gap="md">
        <Text>The administrator account of your new Hub. You sign in to the Hub with it.</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField name="firstName" label="First name" required autoComplete="off" />
          <TextField name="lastName" label="Last name" required autoComplete="off" />
          <TextField name="userName" label="Username" required autoComplete="off" />
          <TextField name="email" label="Email" type="email" required autoComplete="off" />
          <TextField name="phoneNumber" label="Phone number" type="tel" autoComplete="off" />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextField
            name="password"
            label="Password"
            type="password"
            required
            autoComplete="new-password"
            description={`At least 8 characters with a digit, a lowercase and an uppercase letter.${passwordKept ? " Please type it again." : ""}`}
          />
          <TextField name="confirmPassword" label="Confirm password" type="password" required autoComplete="new-password" />
        </SimpleGrid>
      </Stack>
      <StepActions previousTo={cloudHubStepUrl("license")} nextLabel="Next: Review" />
    </ValidatedForm>
  );
}

export const ErrorBoundary = PageErrorBoundary;

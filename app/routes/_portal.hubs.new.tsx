import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CLOUD_HUB_PATH, CLOUD_HUB_STEPS, CLOUD_HUB_STEP_TITLES, cloudHubStepUrl } from "~/domain/cloud-hub-steps";
import { requireUser } from "~/server/auth.server";
import { readUserForm } from "~/server/forms.server";
import { cloudHubWizard } from "~/server/wizards/cloud-hub.server";
import { PageErrorBoundary } from "~/ui/page";
import { WizardLayout } from "~/ui/wizard/wizard-layout";
import { FORM_STYLES } from "~/ui/stylesheets";

export const links: LinksFunction = () => FORM_STYLES;

/** Spec 001 §2, §9: the create-cloud-Hub drawer is 900 wide. */
const CLOUD_HUB_DRAWER_WIDTH = 900;

const STEP_LINKS = CLOUD_HUB_STEPS.map((step) => ({
  key: step,
  title: CLOUD_HUB_STEP_TITLES[step],
  to: cloudHubStepUrl(step),
}));

/** The create-cloud-Hub wizard (spec 001 §2): a drawer over the Hubs page whose steps are child routes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const segment = new URL(request.url).pathname.slice(CLOUD_HUB_PATH.length + 1).split("/")[0];
  const current = CLOUD_HUB_STEPS.find((step) => step === segment);
  if (!current) throw redirect(cloudHubStepUrl("url"));
  return { current, ...cloudHubWizard.chrome(user.id, current) };
}

/** Closing the wizard clears its draft (and the sealed password in it). */
export async function action({ request }: ActionFunctionArgs) {
  const { user } = await readUserForm(request);
  cloudHubWizard.clear(user.id);
  return redirect("/hubs");
}

export default function CloudHubWizard() {
  const { current, reachable, notices } = useLoaderData<typeof loader>();
  return (
    <WizardLayout
      title="Create New Cloud GateKeeper Hub Deployment"
      stepsLabel="Deployment steps"
      steps={STEP_LINKS}
      current={current}
      reachable={reachable}
      notices={notices}
      closeAction={CLOUD_HUB_PATH}
      width={CLOUD_HUB_DRAWER_WIDTH}
    />
  );
}

export const ErrorBoundary = PageErrorBoundary;

import { Badge } from "~/ui/badge";
import { portalNow } from "~/server/billing/index.server";
import { Anchor, Text } from "~/ui/typography";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { cloudHubStepUrl, SELECT_A_LICENSE, UNABLE_TO_VERIFY_LICENSE } from "~/domain/cloud-hub-steps";
import { formatDate } from "~/domain/format";
import { lazyValidator } from "~/domain/lazy-validator";
import { LICENSES_PER_PAGE, pageCount, requestedPage } from "~/domain/pagination";
import { readMemberForm, requireMember } from "~/server/accounts/access.server";
import { cloudHubLicensePage, selectableLicense } from "~/server/cloud-hubs/cloud-hub-licenses.server";
import { cloudHubWizard } from "~/server/cloud-hubs/cloud-hub-wizard.server";
import { Button } from "~/ui/button";
import { Radio, RadioGroup, TextInput } from "~/ui/inputs";
import { Group, Stack } from "~/ui/layout";
import { PageErrorBoundary } from "~/ui/page";
import { PageLinks } from "~/ui/page-links";
import { Table } from "~/ui/table";
import { StepActions } from "~/ui/wizard/step-actions";

const STEP_URL = cloudHubStepUrl("license");
const licenseValidator = lazyValidator(() => import("~/domain/cloud-hub").then((module) => module.licenseStepSchema));
/** The license search waits 500 ms after the last keystroke, so typing does not send a request per letter. */
const SEARCH_DEBOUNCE_MS = 500;

export async function loader({ request }: LoaderFunctionArgs) {
  const member = await requireMember(request, "hubs.deploy");
  const { data } = await cloudHubWizard.load(member, "license");
  const url = new URL(request.url);
  const search = url.searchParams.get("q") ?? "";
  const page = requestedPage(url.searchParams.get("page"));
  if (page === null) throw redirect(pageHref(search, 1));
  const { total, licenses } = await cloudHubLicensePage(
    member.organization.id,
    search,
    page,
    LICENSES_PER_PAGE,
    await portalNow(),
  );
  const pages = pageCount(total, LICENSES_PER_PAGE);
  if (page > pages) throw redirect(pageHref(search, pages));
  const now = Date.now();
  return json({
    search,
    page,
    pages,
    total,
    selected: data.licenseId,
    licenses: licenses.map((license) => ({
      id: license.id,
      name: license.name,
      externalLicenseId: license.externalLicenseId,
      validFrom: license.validFrom.toISOString(),
      validTo: license.validTo.toISOString(),
      startsLater: license.validFrom.getTime() > now,
      nodes: license.nodes,
    })),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const { member, formData } = await readMemberForm(request, "hubs.deploy");
  const parsed = await licenseValidator.validate(formData);
  if (parsed.error) return json({ error: SELECT_A_LICENSE }, { status: 422 });
  // Another account's license, a used one, or one a deployment under way holds (a page left open meanwhile).
  if (!(await selectableLicense(member.organization.id, parsed.data.licenseId, await portalNow()))) {
    return json({ error: UNABLE_TO_VERIFY_LICENSE }, { status: 422 });
  }
  return cloudHubWizard.complete(member, "license", { licenseId: parsed.data.licenseId });
}

function pageHref(search: string, page: number) {
  const query = new URLSearchParams({
    ...(search ? { q: search } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  }).toString();
  return query ? `${STEP_URL}?${query}` : STEP_URL;
}

/** The search box: a GET form (Enter or Search), and with JavaScript it also searches as one types. */
function LicenseSearch({ search }: { search: string }) {
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form method="get" role="search" ref={form}>
      <Group align="flex-end" gap="xs">
        <TextInput
          name="q"
          label="Search licenses"
          description="By organization name or license id"
          defaultValue={search}
          onChange={() => {
            clearTimeout(timer.current);
            timer.current = setTimeout(
              () => form.current && submit(form.current, { replace: true }),
              SEARCH_DEBOUNCE_MS,
            );
          }}
        />
        <Button type="submit" variant="default">
          Search
        </Button>
      </Group>
    </Form>
  );
}

export default function LicenseStep() {
  const { search, page, pages, total, selected, licenses } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [choice, setChoice] = useState(selected ?? "");
  const hydrated = useHydrated();
  return (
    <Stack gap="md">
      <LicenseSearch search={search} />
      <Form method="post" id="license-step">
        <AuthenticityTokenInput name="csrf" />
        {licenses.length === 0 && actionData?.error ? (
          // The license chosen on a page left open is no longer listed (a deployment under way holds it).
          <Text role="alert" c="red.9">
            {actionData.error}
          </Text>
        ) : null}
        {licenses.length === 0 ? (
          <Text>
            You have no license that can be used for a new cloud Hub.{" "}
            <Anchor to="/store/subscribe/plan?origin=cloud-hubs">Purchase GateKeeper License</Anchor>
          </Text>
        ) : (
          <RadioGroup name="licenseId" value={choice} onChange={setChoice} label="License" error={actionData?.error}>
            <Table striped withTableBorder highlightOnHover style={{ marginTop: "var(--mantine-spacing-xs)" }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">
                    <span className="gk-visually-hidden">Choose</span>
                  </Table.Th>
                  <Table.Th scope="col">Organization Name</Table.Th>
                  <Table.Th scope="col">Valid From</Table.Th>
                  <Table.Th scope="col">Valid To</Table.Th>
                  <Table.Th scope="col">Users</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {licenses.map((license) => (
                  <Table.Tr key={license.id} onClick={() => setChoice(license.id)} style={{ cursor: "pointer" }}>
                    <Table.Td>
                      <Radio value={license.id} aria-label={`${license.name} (${license.externalLicenseId})`} />
                    </Table.Td>
                    <Table.Td>
                      {license.name}
                      <Text size="xs" c="dimmed">
                        {license.externalLicenseId}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {formatDate(license.validFrom)}{" "}
                      {license.startsLater ? (
                        <Badge color="yellow" variant="light">
                          Starts later
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{formatDate(license.validTo)}</Table.Td>
                    <Table.Td>{license.nodes}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </RadioGroup>
        )}
        <PageLinks
          page={page}
          pageCount={pages}
          pageSize={LICENSES_PER_PAGE}
          total={total}
          href={(number) => pageHref(search, number)}
          label="License pages"
        />
        <StepActions
          previousTo={cloudHubStepUrl("url")}
          nextLabel="Next: Administration"
          disabledReason={hydrated && !choice ? SELECT_A_LICENSE : null}
        />
      </Form>
    </Stack>
  );
}

export const ErrorBoundary = PageErrorBoundary;

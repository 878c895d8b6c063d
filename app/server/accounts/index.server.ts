// What the accounts capability (sign-in, sessions, organizations, invitations, the team, access, the activity log)
// offers the rest of the portal; its other modules are its own.
export {
  assertMay,
  managedNote,
  mayDo,
  memberGuard,
  readAdminForm,
  readMemberForm,
  requireAdmin,
  requireMember,
  userMay,
  type Scope,
} from "./access.server";
export {
  GATEKEEPER,
  memberActor,
  recordActivity,
  recordProviderOnlyChange,
  type ActivityActor,
  type ActivityEntry,
} from "./activity.server";
export {
  billingAccountOf,
  billingAccountOfCustomer,
  billingAccountOfOwner,
  billingAccounts,
  type BillingAccount,
} from "./billing-accounts.server";
export { emailLinkJob } from "./email-link-job.server";
export {
  assignBillingCustomerId,
  fillSearchKeys,
  findOrganization,
  membersInRoles,
  memberPage,
  MembershipRefused,
  removeMember,
  saveShippingAddress,
  type OrganizationRecord,
} from "./organizations.server";
export { pendingInvitations, postInvitation, revokeInvitation } from "./invitations.server";
export { validateCsrf } from "./csrf.server";
export { greeting, organizationInMail, personInMail } from "./names-in-mail.server";
export { issueOneTimeToken, peekOneTimeToken, revokeOneTimeTokens } from "./one-time-tokens.server";
export { redirectWithToast } from "./session.server";

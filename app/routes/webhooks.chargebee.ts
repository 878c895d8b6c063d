import type { ActionFunctionArgs } from "@remix-run/node";
import { receiveChargebeeWebhook } from "~/server/subscriptions/webhooks.server";

/** Chargebee's webhooks: stored by event id before they are answered 200 (decision 185). */
export const action = ({ request }: ActionFunctionArgs) => receiveChargebeeWebhook(request);

/**
 * The Stripe SDK client as the contract configures it (`../shared/reference/stripe-contract.md`),
 * and how its "no such object" answer is told apart from every other failure.
 */
import Stripe from 'stripe';

/** Where and as whom the SDK calls Stripe. */
export interface StripeConnectionOptions {
  secretKey: string;
  /** Where the SDK sends its calls (a fake or stripe-mock in tests); Stripe's API when unset. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** The SDK client as the contract configures it: retries stated (the README and source disagree), no telemetry. */
export function createStripeClient(options: StripeConnectionOptions): Stripe {
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    telemetry: false,
    ...(options.host ? { host: options.host } : {}),
    ...(options.port ? { port: options.port } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
  });
}

/** Host, port and protocol of an API base URL (STRIPE_API_URL), as the SDK's options take them. */
export function stripeEndpoint(apiUrl: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** True for any error of the SDK's (Stripe unreachable, rate-limited, refusing our key or a call). */
export function isStripeError(err: unknown): err is InstanceType<typeof Stripe.errors.StripeError> {
  return err instanceof Stripe.errors.StripeError;
}

/** True for Stripe's "No such …" answer, which the port reports as null. */
export function isResourceMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && err.code === 'resource_missing';
}

/** The call's answer, or null when Stripe does not know the object; any other error is thrown. */
export async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (isResourceMissing(err)) return null;
    throw err;
  }
}

// Email through the person's own mail server (SMTP, nodemailer): the notice as the subject and a
// short plain-text body with the link to the question. TLS is required except to this computer
// (a password would travel in clear); every stage of the exchange has a deadline.
import nodemailer from "nodemailer";
import type { EmailView } from "../../shared/reach";
import type { Notice } from "./types";
import { isLoopbackHost, OUTBOUND_TIMEOUT_MS } from "./outbound";

/** What sending needs of the settings Settings shows (the password comes from the keychain). */
export type EmailSettings = Omit<EmailView, "enabled" | "passwordSet">;

export function emailText(notice: Notice): string {
  const link = notice.url ? `Open it: ${notice.url}` : "Answer it in the companion on your computer.";
  return `${notice.body}\n\n${link}\n\n-- \nToolnexus Companion. What is sent here is set in Settings, When you are away.\n`;
}

export async function sendEmail(settings: EmailSettings, password: string | undefined, notice: Notice): Promise<void> {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: !settings.secure && !isLoopbackHost(settings.host),
    connectionTimeout: OUTBOUND_TIMEOUT_MS,
    greetingTimeout: OUTBOUND_TIMEOUT_MS,
    socketTimeout: OUTBOUND_TIMEOUT_MS,
    ...(settings.user ? { auth: { user: settings.user, pass: password ?? "" } } : {}),
    // No logger: nodemailer's would write the exchange, the AUTH line with it.
    logger: false,
  });
  try {
    await transport.sendMail({ from: settings.from, to: settings.to, subject: notice.title, text: emailText(notice), disableUrlAccess: true, disableFileAccess: true });
  } finally {
    transport.close();
  }
}

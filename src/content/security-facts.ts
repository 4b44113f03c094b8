/**
 * The figures that the DPA, the Privacy Policy, the Terms and the security page all state. Each is
 * written here once; the texts interpolate it, so a figure cannot say one thing in one place and
 * another elsewhere.
 */
export const SECURITY_FACTS = {
  /** The lowest protocol version used for data in transit. */
  encryptionInTransit: "TLS 1.3",
  /** The cipher for data at rest. */
  encryptionAtRest: "AES-256",
  /** DPA 7.1: the latest a customer hears of a Security Incident, after we become aware of it. */
  incidentNoticeHours: 72,
  /** DPA 8.2, Privacy Policy 7.2, Terms: how long data can be exported after an account closes. */
  exportWindowDays: 30,
  /** DPA 8.3, Privacy Policy 7.2: deletion from active systems after closure, at the latest. */
  activeDeletionDays: 30,
  /** DPA 8.3, Privacy Policy 7.2: deletion from backups after closure, at the latest. */
  backupDeletionDays: 90,
  /** DPA Annex A: how long audit logs are kept, at least. */
  auditLogMonths: 12,
  /** Privacy Policy 9.3: the days within which a verified request is answered. */
  privacyResponseDays: 45,
  /**
   * Privacy Policy 9.3: the shortest deadline a law may set, which the policy promises to meet.
   * The admin's privacy page counts each request's deadline from this one, since a request does
   * not say which law it is made under.
   */
  privacyShortestResponseDays: 30,
  /** The security page: business days to acknowledge a vulnerability report. */
  vulnerabilityAckBusinessDays: 3,
} as const;

package ai.convo.contract.callcounter;

import java.time.LocalDate;

/** The limits both sides of the call counter agree on. */
public final class CallCounterRules {

    /** At most this many records per POST /management/v2.0/callrecords. */
    public static final int MAX_BATCH = 10_000;
    /** Times are Unix seconds from 0 to this (the largest signed 32-bit integer). */
    public static final long MAX_TIME = 2_147_483_647L;
    /** A callId is 1 to this many characters. */
    public static final int MAX_CALL_ID_LENGTH = 64;
    /** The first day the call counter reports (the specification: "only for 2025 onwards"). */
    public static final LocalDate FIRST_DAY = LocalDate.of(2025, 1, 1);
    /** The newest reported day is this many days before today (UTC): "up to two days back". */
    public static final int DAYS_BACK = 2;

    private CallCounterRules() {
    }
}

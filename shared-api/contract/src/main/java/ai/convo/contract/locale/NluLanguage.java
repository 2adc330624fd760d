package ai.convo.contract.locale;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The 29 NLU languages the specification allows, by their wire code. */
public enum NluLanguage {
    GE_GE("ge-GE"), DA_DK("da-DK"), EN_AU("en-AU"), EN_CA("en-CA"), EN_IN("en-IN"), EN_GB("en-GB"), EN_US("en-US"),
    DE_DE("de-DE"), JA_JP("ja-JP"), KO_KR("ko-KR"), ES_ES("es-ES"), NL_NL("nl-NL"), AR_AE("ar-AE"), FI_FI("fi-FI"),
    FR_FR("fr-FR"), IT_IT("it-IT"), NN_NO("nn-NO"), PL_PL("pl-PL"), SV_SE("sv-SE"), TH_TH("th-TH"), ZH_CN("zh-CN"),
    VI_VN("vi-VN"), PT_BR("pt-BR"), RU_RU("ru-RU"), PT_PT("pt-PT"), TR_TR("tr-TR"), HI_IN("hi-IN"), BN_IN("bn-IN"),
    TA_IN("ta-IN");

    private final String code;

    NluLanguage(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Exact, case-sensitive match on the wire code, as the specification lists them. */
    public static Optional<NluLanguage> fromCode(String code) {
        return Arrays.stream(values()).filter(l -> l.code.equals(code)).findFirst();
    }

    public static List<String> codes() {
        return Arrays.stream(values()).map(NluLanguage::code).toList();
    }
}

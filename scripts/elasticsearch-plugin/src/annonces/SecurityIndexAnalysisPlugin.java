package annonces;

import java.util.Map;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

/**
 * The three analysis components the `.security` index's email analyzer names and that the
 * integration-test distribution lacks (they live in the full distribution's analysis-common module):
 * the `uax_url_email` tokenizer and the `pattern_capture` and `unique` token filters. With them a
 * local node with security on can hold native users and API keys. Never installed on a full
 * distribution, which has the module (the names would clash).
 */
public class SecurityIndexAnalysisPlugin extends Plugin implements AnalysisPlugin {

  @Override
  public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
    return Map.of("uax_url_email", (indexSettings, environment, name, settings) -> TokenizerFactory.newFactory(name, UAX29URLEmailTokenizer::new));
  }

  @Override
  public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
    return Map.of(
      "pattern_capture",
      AnalysisPlugin.requiresAnalysisSettings((indexSettings, environment, name, settings) -> {
        Pattern[] patterns = settings.getAsList("patterns").stream().map(Pattern::compile).toArray(Pattern[]::new);
        if (patterns.length == 0) throw new IllegalArgumentException("pattern_capture [" + name + "] needs [patterns]");
        boolean preserveOriginal = settings.getAsBoolean("preserve_original", true);
        return filter(name, (input) -> new PatternCaptureGroupTokenFilter(input, preserveOriginal, patterns));
      }),
      "unique",
      (indexSettings, environment, name, settings) -> filter(name, UniqueTermsFilter::new)
    );
  }

  private static TokenFilterFactory filter(String name, java.util.function.UnaryOperator<TokenStream> wrap) {
    return new TokenFilterFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public TokenStream create(TokenStream input) {
        return wrap.apply(input);
      }
    };
  }

  /** Keeps the first occurrence of each term of the stream, as the full distribution's `unique` does by default. */
  static final class UniqueTermsFilter extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final CharArraySet seen = new CharArraySet(8, false);

    UniqueTermsFilter(TokenStream input) {
      super(input);
    }

    @Override
    public boolean incrementToken() throws java.io.IOException {
      while (input.incrementToken()) {
        char[] buffer = term.buffer();
        int length = term.length();
        if (seen.contains(buffer, 0, length)) continue;
        char[] copy = new char[length];
        System.arraycopy(buffer, 0, copy, 0, length);
        seen.add(copy);
        return true;
      }
      return false;
    }

    @Override
    public void reset() throws java.io.IOException {
      super.reset();
      seen.clear();
    }
  }
}

package io.migd.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks that every name a document gives exists in the code: each property ({@code migd.*}), CLI
 * flag of {@code migd}, metric ({@code migd_*}), label or annotation ({@code nvidia.com/...},
 * {@code migd.io/...}) and REST path ({@code /api/v1/...}). The code is given as {@link Code}, so a
 * test can check the checker against a planted false name.
 */
final class DocsCheck {
  private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern FENCE = Pattern.compile("(?ms)^```[a-z]*\\n(.*?)^```");
  // a property: migd. then dotted lower-case parts; not a file (migd.jar) or a domain (migd.io/)
  private static final Pattern PROPERTY =
      Pattern.compile(
          "(?<![\\w./-])migd\\.[a-zA-Z][a-zA-Z0-9-]*(\\.[a-zA-Z*][a-zA-Z0-9-]*)*(?![\\w/])");
  private static final Pattern METRIC = Pattern.compile("(?<![\\w-])migd_[a-z0-9_]+");
  private static final Pattern LABEL =
      Pattern.compile("(?<![\\w.])(nvidia\\.com|migd\\.io)/[a-zA-Z0-9.<>*_-]*[a-zA-Z0-9>*]");
  private static final Pattern PATH = Pattern.compile("/api/v1(/[a-zA-Z0-9{}_-]+)*");
  private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--?[a-zA-Z][a-zA-Z0-9-]*");
  private static final List<String> METRIC_SUFFIXES =
      List.of("", "_bucket", "_count", "_sum", "_total", "_created", "_max");
  // flags the docs give to other tools' commands, in prose
  private static final Set<String> OTHER_TOOLS_FLAGS =
      Set.of("--set", "--reuse-values", "--kube-version", "--create-namespace");
  private static final Set<String> FILES = Set.of("migd.jar", "migd.yaml", "migd.lock");
  // system properties of the build's own tests (README, "Testing against a real GPU")
  private static final Set<String> BUILD_PROPERTIES =
      Set.of("migd.gpu-test", "migd.gpu-test.write", "migd.gpu-test.mps");
  // the design's metric names the contract and the decisions say are not the built ones
  private static final Set<String> NAMED_AS_NOT_BUILT =
      Set.of(
          "migd_instances_created_total",
          "migd_instances_destroyed_total",
          "migd_instances_created",
          "migd_instances_total");
  // labels of others the docs mention: GFD's product label, and the example node-group label a
  // cluster chooses for itself (deployment.md)
  private static final Set<String> OTHERS_LABELS =
      Set.of("nvidia.com/gpu.product", "migd.io/kubelet-mode");
  private static final Pattern FIRST_DIGIT = Pattern.compile("\\d");

  /**
   * What exists in the code.
   *
   * @param properties every property, as the contract writes it
   * @param chartValues every value path of the chart's values.yaml ({@code migd.existingConfigMap})
   * @param flags every option name of {@code migd} and its commands ({@code -c}, {@code --force})
   * @param restPaths every path of the OpenAPI document
   * @param productionText the production sources, chart templates and values, where metric and
   *     label names must appear
   */
  record Code(
      Set<String> properties,
      Set<String> chartValues,
      Set<String> flags,
      Set<String> restPaths,
      String productionText) {}

  private final Code code;

  DocsCheck(Code code) {
    this.code = code;
  }

  /** One line per false name, {@code file: kind name}; empty when every name exists. */
  List<String> problems(Map<String, String> documents) {
    var problems = new ArrayList<String>();
    documents.forEach((file, text) -> problems.addAll(problems(file, text)));
    return problems;
  }

  private List<String> problems(String file, String text) {
    var found = new TreeSet<String>();
    for (String name : all(PROPERTY, text)) {
      String bare = name.endsWith(".*") ? name.substring(0, name.length() - 2) : name;
      if (!FILES.contains(bare)
          && !BUILD_PROPERTIES.contains(bare)
          && !isProperty(bare)
          && !isChartValue(bare)) {
        found.add(file + ": property " + name);
      }
    }
    for (String name : all(METRIC, text)) {
      if (name.endsWith("_") && code.productionText().contains('"' + name)
          || NAMED_AS_NOT_BUILT.contains(name)) {
        continue;
      }
      if (METRIC_SUFFIXES.stream()
          .noneMatch(
              s ->
                  name.endsWith(s)
                      && code.productionText()
                          .contains('"' + name.substring(0, name.length() - s.length()) + '"'))) {
        found.add(file + ": metric " + name);
      }
    }
    for (String name : all(LABEL, text)) {
      if (!OTHERS_LABELS.contains(name)
          && !code.productionText().contains(literalPart(name.replaceAll("\\.shared$", "")))) {
        found.add(file + ": label " + name);
      }
    }
    for (String path : all(PATH, text)) {
      if (!path.equals("/api/v1") && !code.restPaths().contains(path)) {
        found.add(file + ": REST path " + path);
      }
    }
    for (String flag : migdFlags(text)) {
      if (!code.flags().contains(flag) && !OTHER_TOOLS_FLAGS.contains(flag)) {
        found.add(file + ": flag " + flag);
      }
    }
    return List.copyOf(found);
  }

  private boolean isProperty(String name) {
    return code.properties().stream().anyMatch(p -> p.equals(name) || p.startsWith(name + "."));
  }

  private boolean isChartValue(String name) {
    return code.chartValues().stream().anyMatch(v -> v.equals(name) || v.startsWith(name + "."));
  }

  /**
   * The part of a label the code must hold: up to a placeholder ({@code <profile>}, {@code *}) or
   * an example's profile ({@code nvidia.com/mig-1g.5gb.me}).
   */
  private static String literalPart(String label) {
    Matcher digit = FIRST_DIGIT.matcher(label);
    int cut = digit.find() ? digit.start() : label.length();
    for (char c : new char[] {'<', '*'}) {
      int at = label.indexOf(c);
      if (at >= 0) {
        cut = Math.min(cut, at);
      }
    }
    return label.substring(0, cut);
  }

  /**
   * Flags of migd: a code span that is a long flag ({@code --force}, its first word), every flag of
   * a span that runs migd ({@code ./migd plan -c NAME}) and of a code block's line from where it
   * runs migd; properties ({@code --migd.x}, {@code --server.x}) aside.
   */
  private static Set<String> migdFlags(String text) {
    var flags = new TreeSet<String>();
    var contexts = new ArrayList<String>();
    for (String span : all(SPAN, text, 1)) {
      if (span.startsWith("./migd ") || span.startsWith("migd ")) {
        contexts.add(span);
      } else if (span.startsWith("--")) {
        contexts.add(span.split("[ =]")[0]);
      }
    }
    for (String block : all(FENCE, text, 1)) {
      for (String line : block.lines().toList()) {
        for (String runs : List.of("./migd ", "migd.jar ")) {
          int at = line.indexOf(runs);
          if (at >= 0) {
            contexts.add(line.substring(at + runs.length()));
          }
        }
      }
    }
    for (String context : contexts) {
      Matcher m = FLAG.matcher(context);
      while (m.find()) {
        int end = m.end();
        boolean property = end < context.length() && context.charAt(end) == '.';
        if (!property && !m.group().equals("--name")) {
          flags.add(m.group());
        }
      }
    }
    return flags;
  }

  private static List<String> all(Pattern pattern, String text) {
    return all(pattern, text, 0);
  }

  private static List<String> all(Pattern pattern, String text, int group) {
    return pattern.matcher(text).results().map(r -> r.group(group)).toList();
  }

  /** The documents the check reads: README.md, docs/*.md and helm/README.md, by path. */
  static Map<String, String> documents(Path root) {
    var documents = new LinkedHashMap<String, String>();
    try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
      var files = new ArrayList<Path>();
      files.add(root.resolve("README.md"));
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
      files.add(root.resolve("helm/README.md"));
      for (Path file : files) {
        documents.put(root.relativize(file).toString(), Files.readString(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return documents;
  }

  /** The text of every file under {@code dirs} whose name ends with one of {@code suffixes}. */
  static String text(Collection<Path> dirs, Collection<String> suffixes) {
    var text = new StringBuilder();
    for (Path dir : dirs) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path file :
            files
                .filter(Files::isRegularFile)
                .filter(f -> suffixes.stream().anyMatch(s -> f.toString().endsWith(s)))
                .sorted()
                .toList()) {
          text.append(Files.readString(file)).append('\n');
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return text.toString();
  }
}

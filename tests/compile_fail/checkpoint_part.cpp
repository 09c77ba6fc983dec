// Must not compile: a checkpoint of a type kt does not know how to save. Fixed: say how, with a
// specialisation of kt::io::CheckpointPart.
#include <kt/io/checkpoint.hpp>

#include <string>

struct Counter {
  int value = 0;
};

#if defined(KT_COMPILE_FAIL_FIXED)
template <>
struct kt::io::CheckpointPart<Counter> {
  static void save(NamedTensors&, CheckpointRecords& records, const std::string& name, const Counter& c) {
    records[name] = std::to_string(c.value);
  }
  static RestoreCommit stage(const SafetensorsFile& file, const std::string& name, Counter& c) {
    const int value = std::stoi(file.metadata().at(name));
    return [&c, value] { c.value = value; };
  }
};
#endif

int main() {
  Counter counter;
  kt::io::Checkpoint checkpoint;
  checkpoint.add("counter", counter);
  return 0;
}

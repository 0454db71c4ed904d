#include "driver/symbols.h"

#include "ir/printf_format.h"

namespace dtrace::driver {

namespace {

bool anyUserField(const std::vector<ir::Field>& fields) {
  for (const ir::Field& f : fields) {
    if (ir::isUserCodeKind(f.kind)) return true;
  }
  return false;
}

// %A names an address of the -c or -p process.
bool usesUserAddressConversion(const std::string& format) {
  auto parsed = ir::PrintfFormat::parse(format);
  const auto* f = std::get_if<ir::PrintfFormat>(&parsed);
  if (!f) return false;
  for (const ir::PrintfPiece& piece : f->pieces()) {
    if (piece.conversion && piece.conversion->render == ir::PrintfRender::UserSymbol) return true;
  }
  return false;
}

}  // namespace

bool namesUserAddresses(const ir::Program& program) {
  for (const ir::Ecb& ecb : program.ecbs) {
    for (const ir::Action& a : ecb.actions) {
      if (anyUserField(a.fields)) return true;
    }
  }
  for (const ir::Aggregation& agg : program.aggregations) {
    if (anyUserField(agg.keys)) return true;
  }
  for (const std::string& format : program.formats) {
    if (usesUserAddressConversion(format)) return true;
  }
  return false;
}

SessionSymbols::SessionSymbols(const ir::Program& program, int stackIndent, int targetPid,
                               bool followMappings, bool demangle)
    : followMappings_(followMappings) {
  if (namesUserAddresses(program)) user_ = std::make_unique<sym::UserSymbols>();
  context_.user = user_.get();
  context_.stackIndent = stackIndent;
  context_.targetPid = targetPid;
  context_.demangle = demangle;
}

Result<void> SessionSymbols::start() {
  if (!user_ && !followMappings_) return {};
  auto events = sym::MappingEvents::open();
  if (!events) return events.error();
  events_ = std::move(*events);
  return {};
}

void SessionSymbols::notePid(int pid) {
  if (user_) user_->notePid(pid);
}

void SessionSymbols::refresh(const std::function<void(const sym::MappingEvent&)>& observer) {
  if (!events_) return;
  events_->drain([&](const sym::MappingEvent& e) {
    if (user_) user_->apply(e);
    if (observer) observer(e);
  });
}

std::vector<int> SessionSymbols::pollFds() const {
  return events_ ? events_->pollFds() : std::vector<int>{};
}

}  // namespace dtrace::driver
